// Compiled from generated/client/soap.ts by npm run generate; do not edit. source d9ec01b5ab2eb3a156a52fc2add21cd26ca0616e034e8c011411ae0a86aa9a3d output 934e71d0735aa9433a43570b0b946554a4d895dad9ca5c332021ad0ff75e7495
import type { CheckStatusRequest, CheckStatusResponse, LastUpdateRequest, LastUpdateResponse, CreateUserRequest, CreateUserResponse, UpdateUserRequest, UpdateUserResponse, DeleteUserRequest, DeleteUserResponse, QueryUserRequest, QueryUserResponse, DoesUserExistRequest, DoesUserExistResponse, WhiteboardIdRequest, WhiteboardIdResponse, AssignObjectRequest, AssignObjectResponse, CreateObjectRequest, CreateObjectResponse, DeleteObjectRequest, DeleteObjectResponse, MoveObjectRequest, MoveObjectResponse, ObjectExistsRequest, ObjectExistsResponse, AddPropertyRequest, AddPropertyResponse, UpdatePropertyRequest, UpdatePropertyResponse, DeletePropertyRequest, DeletePropertyResponse, ContextQueryRequest, QueryResponse, ObjectIdQueryRequest, AllWorkspaceQueryRequest, QueryPropertyDefinitionsRequest, QueryPropertyDefinitionsResponse, GetAllQueryDescriptionsRequest, GetAllQueryDescriptionsResponse, GetQueryDefinitionRequest, GetQueryDefinitionResponse, SaveQueryDefinitionRequest, SaveQueryDefinitionResponse, DeleteQueryDefinitionRequest, DeleteQueryDefinitionResponse } from '../soap/types.js';
export { SoapFault, XmlSchemaError } from '../soap/runtime.js';
export type * from '../soap/types.js';
export interface CatalogServiceClientOptions {
    /** The service address, e.g. `http://127.0.0.1:8080/catalog`. */
    readonly url: string;
    /** The caller's distinguished name, sent in a `Username` SOAP header. */
    readonly username?: string | undefined;
    /** Bearer token sent as `Authorization: Bearer <token>`. */
    readonly token?: string | undefined;
    /** Extra SOAP header blocks, as XML text. */
    readonly soapHeaders?: readonly string[] | undefined;
    /** Extra HTTP headers. */
    readonly headers?: Readonly<Record<string, string>> | undefined;
    readonly fetch?: typeof globalThis.fetch | undefined;
}
/** A non-SOAP answer (no envelope), with the HTTP status. */
export declare class SoapTransportError extends Error {
    readonly status: number;
    readonly body: string;
    constructor(status: number, body: string);
}
export declare class CatalogServiceClient {
    private readonly options;
    private readonly fetchImpl;
    constructor(options: CatalogServiceClientOptions);
    /** checkStatus: SOAPAction "urn:checkStatus". */
    checkStatus(request: CheckStatusRequest): Promise<CheckStatusResponse>;
    /** lastUpdate: SOAPAction "urn:lastUpdate". */
    lastUpdate(request: LastUpdateRequest): Promise<LastUpdateResponse>;
    /** createUser: SOAPAction "urn:createUser". */
    createUser(request: CreateUserRequest): Promise<CreateUserResponse>;
    /** updateUser: SOAPAction "urn:updateUser". */
    updateUser(request: UpdateUserRequest): Promise<UpdateUserResponse>;
    /** deleteUser: SOAPAction "urn:deleteUser". */
    deleteUser(request: DeleteUserRequest): Promise<DeleteUserResponse>;
    /** queryUser: SOAPAction "urn:queryUser". */
    queryUser(request: QueryUserRequest): Promise<QueryUserResponse>;
    /** doesUserExist: SOAPAction "urn:doesUserExist". */
    doesUserExist(request: DoesUserExistRequest): Promise<DoesUserExistResponse>;
    /** whiteboardId: SOAPAction "urn:whiteboardId". */
    whiteboardId(request: WhiteboardIdRequest): Promise<WhiteboardIdResponse>;
    /** assignObject: SOAPAction "urn:assignObject". */
    assignObject(request: AssignObjectRequest): Promise<AssignObjectResponse>;
    /** createObject: SOAPAction "urn:createObject". */
    createObject(request: CreateObjectRequest): Promise<CreateObjectResponse>;
    /** deleteObject: SOAPAction "urn:deleteObject". */
    deleteObject(request: DeleteObjectRequest): Promise<DeleteObjectResponse>;
    /** moveObject: SOAPAction "urn:moveObject". */
    moveObject(request: MoveObjectRequest): Promise<MoveObjectResponse>;
    /** objectExists: SOAPAction "urn:objectExists". */
    objectExists(request: ObjectExistsRequest): Promise<ObjectExistsResponse>;
    /** addProperty: SOAPAction "urn:addProperty". */
    addProperty(request: AddPropertyRequest): Promise<AddPropertyResponse>;
    /** updateProperty: SOAPAction "urn:updateProperty". */
    updateProperty(request: UpdatePropertyRequest): Promise<UpdatePropertyResponse>;
    /** deleteProperty: SOAPAction "urn:deleteProperty". */
    deleteProperty(request: DeletePropertyRequest): Promise<DeletePropertyResponse>;
    /** query: SOAPAction "urn:query". */
    query(request: ContextQueryRequest): Promise<QueryResponse>;
    /** objectIdQuery: SOAPAction "urn:objectIdQuery". */
    objectIdQuery(request: ObjectIdQueryRequest): Promise<QueryResponse>;
    /** allWorkspaceQuery: SOAPAction "urn:allWorkspaceQuery". */
    allWorkspaceQuery(request: AllWorkspaceQueryRequest): Promise<QueryResponse>;
    /** queryPropertyDefinitions: SOAPAction "urn:queryPropertyDefinitions". */
    queryPropertyDefinitions(request: QueryPropertyDefinitionsRequest): Promise<QueryPropertyDefinitionsResponse>;
    /** getAllQueryDescriptions: SOAPAction "urn:getAllQueryDescriptions". */
    getAllQueryDescriptions(request: GetAllQueryDescriptionsRequest): Promise<GetAllQueryDescriptionsResponse>;
    /** getQueryDefinition: SOAPAction "urn:getQueryDefinition". */
    getQueryDefinition(request: GetQueryDefinitionRequest): Promise<GetQueryDefinitionResponse>;
    /** saveQueryDefinition: SOAPAction "urn:saveQueryDefinition". */
    saveQueryDefinition(request: SaveQueryDefinitionRequest): Promise<SaveQueryDefinitionResponse>;
    /** deleteQueryDefinition: SOAPAction "urn:deleteQueryDefinition". */
    deleteQueryDefinition(request: DeleteQueryDefinitionRequest): Promise<DeleteQueryDefinitionResponse>;
    private call;
}
