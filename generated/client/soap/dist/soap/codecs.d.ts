// Compiled from generated/soap/codecs.ts by npm run generate; do not edit. source 06b60960cfa1cc1df73f5187b9a524561d70c8a33d732b90e19fbfb532686c44 output b75ed529833c4c66590a264ac25b43f13ef35005cbda0d28b2eb2e9d06405e21
import { XmlOut, type XmlNode } from './runtime.js';
import type { CatalogStatusType, CatalogDeliveryType, CatalogAggregationType, HierarchyFilterType, ContentFilterType, ContextType, ComparisonType, TextComparisonType, SpatialComparisonType, CatalogOperationStatusType, OperationSummaryType, MethodParameterType, ErrorDetailType, StackTraceType, CatalogStatType, UserAddrType, UserType, InitialWorkspaceType, InitialObjectType, ElementValueType, PropertyType, CatalogDataType, CatalogPropertyType, UpdatePropertyType, DeletePropertyRangeType, DeletePropertyType, QueryXyPointType, QueryTextElementType, QueryValueElementType, QueryRangeElementType, QueryPointElementType, QueryPolygonElementType, QueryElementType, QueryElementOrSetType, QueryElementAndSetType, QueryPropertyType, QueryPropertyOrSetType, QueryPropertyAndSetType, QueryObjectType, QueryComponentType, QueryOrSetType, QueryAndSetType, ContextQueryType, ParentChildFilterType, HierarchyFilterSetType, PropertyFilterType, ElementFilterType, PropertyExclusionType, QueryResultFormatType, ResultNodeType, GuidResponseType, ObjectResponseType, PropertyResponseType, MetadataElementType, ElementResponseType, ObjectSetResponseType, QueryResponseSetType, QueryResponseType, MetadataElementDefType, MetadataPropertyDefType, MetadataCategoryDefType, MetadataDefinitionType, CheckStatusRequestType, CheckStatusResponseType, LastUpdateRequestType, LastUpdateResponseType, CreateUserRequestType, CreateUserResponseType, UpdateUserRequestType, UpdateUserResponseType, DeleteUserRequestType, DeleteUserResponseType, QueryUserRequestType, QueryUserResponseType, DoesUserExistRequestType, DoesUserExistResponseType, WhiteboardIdRequestType, WhiteboardIdResponseType, AssignObjectRequestType, AssignObjectResponseType, CreateObjectRequestType, CreateObjectResponseType, DeleteObjectRequestType, DeleteObjectResponseType, MoveObjectRequestType, MoveObjectResponseType, ObjectExistsRequestType, ObjectExistsResponseType, AddPropertyRequestType, AddPropertyResponseType, UpdatePropertyRequestType, UpdatePropertyResponseType, DeletePropertyRequestType, DeletePropertyResponseType, ContextQueryRequestType, ObjectIdQueryRequestType, AllWorkspaceQueryRequestType, QueryPropertyDefinitionsRequestType, QueryPropertyDefinitionsResponseType, QueryDescriptionType, QueryDescriptionSetType, QueryDefinitionType, GetAllQueryDescriptionsRequestType, GetAllQueryDescriptionsResponseType, GetQueryDefinitionRequestType, GetQueryDefinitionResponseType, SaveQueryDefinitionRequestType, SaveQueryDefinitionResponseType, DeleteQueryDefinitionRequestType, DeleteQueryDefinitionResponseType, CheckStatusRequest, CheckStatusResponse, LastUpdateRequest, LastUpdateResponse, CreateUserRequest, CreateUserResponse, UpdateUserRequest, UpdateUserResponse, DeleteUserRequest, DeleteUserResponse, QueryUserRequest, QueryUserResponse, DoesUserExistRequest, DoesUserExistResponse, WhiteboardIdRequest, WhiteboardIdResponse, AssignObjectRequest, AssignObjectResponse, CreateObjectRequest, CreateObjectResponse, DeleteObjectRequest, DeleteObjectResponse, MoveObjectRequest, MoveObjectResponse, ObjectExistsRequest, ObjectExistsResponse, AddPropertyRequest, AddPropertyResponse, UpdatePropertyRequest, UpdatePropertyResponse, DeletePropertyRequest, DeletePropertyResponse, ContextQueryRequest, QueryResponse, ObjectIdQueryRequest, AllWorkspaceQueryRequest, QueryPropertyDefinitionsRequest, QueryPropertyDefinitionsResponse, GetAllQueryDescriptionsRequest, GetAllQueryDescriptionsResponse, GetQueryDefinitionRequest, GetQueryDefinitionResponse, SaveQueryDefinitionRequest, SaveQueryDefinitionResponse, DeleteQueryDefinitionRequest, DeleteQueryDefinitionResponse } from './types.js';
/** The namespace of every element of the messages. */
export declare const NAMESPACE = "http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/types";
export declare function parseCatalogStatusType(text: string, path: string): CatalogStatusType;
export declare function parseCatalogDeliveryType(text: string, path: string): CatalogDeliveryType;
export declare function parseCatalogAggregationType(text: string, path: string): CatalogAggregationType;
export declare function parseHierarchyFilterType(text: string, path: string): HierarchyFilterType;
export declare function parseContentFilterType(text: string, path: string): ContentFilterType;
export declare function parseContextType(text: string, path: string): ContextType;
export declare function parseComparisonType(text: string, path: string): ComparisonType;
export declare function parseTextComparisonType(text: string, path: string): TextComparisonType;
export declare function parseSpatialComparisonType(text: string, path: string): SpatialComparisonType;
export declare function readCatalogOperationStatusType(node: XmlNode, path: string): CatalogOperationStatusType;
export declare function writeCatalogOperationStatusType(o: XmlOut, tag: string, v: CatalogOperationStatusType): void;
export declare function readOperationSummaryType(node: XmlNode, path: string): OperationSummaryType;
export declare function writeOperationSummaryType(o: XmlOut, tag: string, v: OperationSummaryType): void;
export declare function readMethodParameterType(node: XmlNode, path: string): MethodParameterType;
export declare function writeMethodParameterType(o: XmlOut, tag: string, v: MethodParameterType): void;
export declare function readErrorDetailType(node: XmlNode, path: string): ErrorDetailType;
export declare function writeErrorDetailType(o: XmlOut, tag: string, v: ErrorDetailType): void;
export declare function readStackTraceType(node: XmlNode, path: string): StackTraceType;
export declare function writeStackTraceType(o: XmlOut, tag: string, v: StackTraceType): void;
export declare function readCatalogStatType(node: XmlNode, path: string): CatalogStatType;
export declare function writeCatalogStatType(o: XmlOut, tag: string, v: CatalogStatType): void;
export declare function readUserAddrType(node: XmlNode, path: string): UserAddrType;
export declare function writeUserAddrType(o: XmlOut, tag: string, v: UserAddrType): void;
export declare function readUserType(node: XmlNode, path: string): UserType;
export declare function writeUserType(o: XmlOut, tag: string, v: UserType): void;
export declare function readInitialWorkspaceType(node: XmlNode, path: string): InitialWorkspaceType;
export declare function writeInitialWorkspaceType(o: XmlOut, tag: string, v: InitialWorkspaceType): void;
export declare function readInitialObjectType(node: XmlNode, path: string): InitialObjectType;
export declare function writeInitialObjectType(o: XmlOut, tag: string, v: InitialObjectType): void;
export declare function readElementValueType(node: XmlNode, path: string): ElementValueType;
export declare function writeElementValueType(o: XmlOut, tag: string, v: ElementValueType): void;
export declare function readPropertyType(node: XmlNode, path: string): PropertyType;
export declare function writePropertyType(o: XmlOut, tag: string, v: PropertyType): void;
export declare function readCatalogDataType(node: XmlNode, path: string): CatalogDataType;
export declare function writeCatalogDataType(o: XmlOut, tag: string, v: CatalogDataType): void;
export declare function readCatalogPropertyType(node: XmlNode, path: string): CatalogPropertyType;
export declare function writeCatalogPropertyType(o: XmlOut, tag: string, v: CatalogPropertyType): void;
export declare function readUpdatePropertyType(node: XmlNode, path: string): UpdatePropertyType;
export declare function writeUpdatePropertyType(o: XmlOut, tag: string, v: UpdatePropertyType): void;
export declare function readDeletePropertyRangeType(node: XmlNode, path: string): DeletePropertyRangeType;
export declare function writeDeletePropertyRangeType(o: XmlOut, tag: string, v: DeletePropertyRangeType): void;
export declare function readDeletePropertyType(node: XmlNode, path: string): DeletePropertyType;
export declare function writeDeletePropertyType(o: XmlOut, tag: string, v: DeletePropertyType): void;
export declare function readQueryXyPointType(node: XmlNode, path: string): QueryXyPointType;
export declare function writeQueryXyPointType(o: XmlOut, tag: string, v: QueryXyPointType): void;
export declare function readQueryTextElementType(node: XmlNode, path: string): QueryTextElementType;
export declare function writeQueryTextElementType(o: XmlOut, tag: string, v: QueryTextElementType): void;
export declare function readQueryValueElementType(node: XmlNode, path: string): QueryValueElementType;
export declare function writeQueryValueElementType(o: XmlOut, tag: string, v: QueryValueElementType): void;
export declare function readQueryRangeElementType(node: XmlNode, path: string): QueryRangeElementType;
export declare function writeQueryRangeElementType(o: XmlOut, tag: string, v: QueryRangeElementType): void;
export declare function readQueryPointElementType(node: XmlNode, path: string): QueryPointElementType;
export declare function writeQueryPointElementType(o: XmlOut, tag: string, v: QueryPointElementType): void;
export declare function readQueryPolygonElementType(node: XmlNode, path: string): QueryPolygonElementType;
export declare function writeQueryPolygonElementType(o: XmlOut, tag: string, v: QueryPolygonElementType): void;
export declare function readQueryElementType(node: XmlNode, path: string): QueryElementType;
export declare function writeQueryElementType(o: XmlOut, tag: string, v: QueryElementType): void;
export declare function readQueryElementOrSetType(node: XmlNode, path: string): QueryElementOrSetType;
export declare function writeQueryElementOrSetType(o: XmlOut, tag: string, v: QueryElementOrSetType): void;
export declare function readQueryElementAndSetType(node: XmlNode, path: string): QueryElementAndSetType;
export declare function writeQueryElementAndSetType(o: XmlOut, tag: string, v: QueryElementAndSetType): void;
export declare function readQueryPropertyType(node: XmlNode, path: string): QueryPropertyType;
export declare function writeQueryPropertyType(o: XmlOut, tag: string, v: QueryPropertyType): void;
export declare function readQueryPropertyOrSetType(node: XmlNode, path: string): QueryPropertyOrSetType;
export declare function writeQueryPropertyOrSetType(o: XmlOut, tag: string, v: QueryPropertyOrSetType): void;
export declare function readQueryPropertyAndSetType(node: XmlNode, path: string): QueryPropertyAndSetType;
export declare function writeQueryPropertyAndSetType(o: XmlOut, tag: string, v: QueryPropertyAndSetType): void;
export declare function readQueryObjectType(node: XmlNode, path: string): QueryObjectType;
export declare function writeQueryObjectType(o: XmlOut, tag: string, v: QueryObjectType): void;
export declare function readQueryComponentType(node: XmlNode, path: string): QueryComponentType;
export declare function writeQueryComponentType(o: XmlOut, tag: string, v: QueryComponentType): void;
export declare function readQueryOrSetType(node: XmlNode, path: string): QueryOrSetType;
export declare function writeQueryOrSetType(o: XmlOut, tag: string, v: QueryOrSetType): void;
export declare function readQueryAndSetType(node: XmlNode, path: string): QueryAndSetType;
export declare function writeQueryAndSetType(o: XmlOut, tag: string, v: QueryAndSetType): void;
export declare function readContextQueryType(node: XmlNode, path: string): ContextQueryType;
export declare function writeContextQueryType(o: XmlOut, tag: string, v: ContextQueryType): void;
export declare function readParentChildFilterType(node: XmlNode, path: string): ParentChildFilterType;
export declare function writeParentChildFilterType(o: XmlOut, tag: string, v: ParentChildFilterType): void;
export declare function readHierarchyFilterSetType(node: XmlNode, path: string): HierarchyFilterSetType;
export declare function writeHierarchyFilterSetType(o: XmlOut, tag: string, v: HierarchyFilterSetType): void;
export declare function readPropertyFilterType(node: XmlNode, path: string): PropertyFilterType;
export declare function writePropertyFilterType(o: XmlOut, tag: string, v: PropertyFilterType): void;
export declare function readElementFilterType(node: XmlNode, path: string): ElementFilterType;
export declare function writeElementFilterType(o: XmlOut, tag: string, v: ElementFilterType): void;
export declare function readPropertyExclusionType(node: XmlNode, path: string): PropertyExclusionType;
export declare function writePropertyExclusionType(o: XmlOut, tag: string, v: PropertyExclusionType): void;
export declare function readQueryResultFormatType(node: XmlNode, path: string): QueryResultFormatType;
export declare function writeQueryResultFormatType(o: XmlOut, tag: string, v: QueryResultFormatType): void;
export declare function readResultNodeType(node: XmlNode, path: string): ResultNodeType;
export declare function writeResultNodeType(o: XmlOut, tag: string, v: ResultNodeType): void;
export declare function readGuidResponseType(node: XmlNode, path: string): GuidResponseType;
export declare function writeGuidResponseType(o: XmlOut, tag: string, v: GuidResponseType): void;
export declare function readObjectResponseType(node: XmlNode, path: string): ObjectResponseType;
export declare function writeObjectResponseType(o: XmlOut, tag: string, v: ObjectResponseType): void;
export declare function readPropertyResponseType(node: XmlNode, path: string): PropertyResponseType;
export declare function writePropertyResponseType(o: XmlOut, tag: string, v: PropertyResponseType): void;
export declare function readMetadataElementType(node: XmlNode, path: string): MetadataElementType;
export declare function writeMetadataElementType(o: XmlOut, tag: string, v: MetadataElementType): void;
export declare function readElementResponseType(node: XmlNode, path: string): ElementResponseType;
export declare function writeElementResponseType(o: XmlOut, tag: string, v: ElementResponseType): void;
export declare function readObjectSetResponseType(node: XmlNode, path: string): ObjectSetResponseType;
export declare function writeObjectSetResponseType(o: XmlOut, tag: string, v: ObjectSetResponseType): void;
export declare function readQueryResponseSetType(node: XmlNode, path: string): QueryResponseSetType;
export declare function writeQueryResponseSetType(o: XmlOut, tag: string, v: QueryResponseSetType): void;
export declare function readQueryResponseType(node: XmlNode, path: string): QueryResponseType;
export declare function writeQueryResponseType(o: XmlOut, tag: string, v: QueryResponseType): void;
export declare function readMetadataElementDefType(node: XmlNode, path: string): MetadataElementDefType;
export declare function writeMetadataElementDefType(o: XmlOut, tag: string, v: MetadataElementDefType): void;
export declare function readMetadataPropertyDefType(node: XmlNode, path: string): MetadataPropertyDefType;
export declare function writeMetadataPropertyDefType(o: XmlOut, tag: string, v: MetadataPropertyDefType): void;
export declare function readMetadataCategoryDefType(node: XmlNode, path: string): MetadataCategoryDefType;
export declare function writeMetadataCategoryDefType(o: XmlOut, tag: string, v: MetadataCategoryDefType): void;
export declare function readMetadataDefinitionType(node: XmlNode, path: string): MetadataDefinitionType;
export declare function writeMetadataDefinitionType(o: XmlOut, tag: string, v: MetadataDefinitionType): void;
export declare function readCheckStatusRequestType(node: XmlNode, path: string): CheckStatusRequestType;
export declare function writeCheckStatusRequestType(o: XmlOut, tag: string, v: CheckStatusRequestType): void;
export declare function readCheckStatusResponseType(node: XmlNode, path: string): CheckStatusResponseType;
export declare function writeCheckStatusResponseType(o: XmlOut, tag: string, v: CheckStatusResponseType): void;
export declare function readLastUpdateRequestType(node: XmlNode, path: string): LastUpdateRequestType;
export declare function writeLastUpdateRequestType(o: XmlOut, tag: string, v: LastUpdateRequestType): void;
export declare function readLastUpdateResponseType(node: XmlNode, path: string): LastUpdateResponseType;
export declare function writeLastUpdateResponseType(o: XmlOut, tag: string, v: LastUpdateResponseType): void;
export declare function readCreateUserRequestType(node: XmlNode, path: string): CreateUserRequestType;
export declare function writeCreateUserRequestType(o: XmlOut, tag: string, v: CreateUserRequestType): void;
export declare function readCreateUserResponseType(node: XmlNode, path: string): CreateUserResponseType;
export declare function writeCreateUserResponseType(o: XmlOut, tag: string, v: CreateUserResponseType): void;
export declare function readUpdateUserRequestType(node: XmlNode, path: string): UpdateUserRequestType;
export declare function writeUpdateUserRequestType(o: XmlOut, tag: string, v: UpdateUserRequestType): void;
export declare function readUpdateUserResponseType(node: XmlNode, path: string): UpdateUserResponseType;
export declare function writeUpdateUserResponseType(o: XmlOut, tag: string, v: UpdateUserResponseType): void;
export declare function readDeleteUserRequestType(node: XmlNode, path: string): DeleteUserRequestType;
export declare function writeDeleteUserRequestType(o: XmlOut, tag: string, v: DeleteUserRequestType): void;
export declare function readDeleteUserResponseType(node: XmlNode, path: string): DeleteUserResponseType;
export declare function writeDeleteUserResponseType(o: XmlOut, tag: string, v: DeleteUserResponseType): void;
export declare function readQueryUserRequestType(node: XmlNode, path: string): QueryUserRequestType;
export declare function writeQueryUserRequestType(o: XmlOut, tag: string, v: QueryUserRequestType): void;
export declare function readQueryUserResponseType(node: XmlNode, path: string): QueryUserResponseType;
export declare function writeQueryUserResponseType(o: XmlOut, tag: string, v: QueryUserResponseType): void;
export declare function readDoesUserExistRequestType(node: XmlNode, path: string): DoesUserExistRequestType;
export declare function writeDoesUserExistRequestType(o: XmlOut, tag: string, v: DoesUserExistRequestType): void;
export declare function readDoesUserExistResponseType(node: XmlNode, path: string): DoesUserExistResponseType;
export declare function writeDoesUserExistResponseType(o: XmlOut, tag: string, v: DoesUserExistResponseType): void;
export declare function readWhiteboardIdRequestType(node: XmlNode, path: string): WhiteboardIdRequestType;
export declare function writeWhiteboardIdRequestType(o: XmlOut, tag: string, v: WhiteboardIdRequestType): void;
export declare function readWhiteboardIdResponseType(node: XmlNode, path: string): WhiteboardIdResponseType;
export declare function writeWhiteboardIdResponseType(o: XmlOut, tag: string, v: WhiteboardIdResponseType): void;
export declare function readAssignObjectRequestType(node: XmlNode, path: string): AssignObjectRequestType;
export declare function writeAssignObjectRequestType(o: XmlOut, tag: string, v: AssignObjectRequestType): void;
export declare function readAssignObjectResponseType(node: XmlNode, path: string): AssignObjectResponseType;
export declare function writeAssignObjectResponseType(o: XmlOut, tag: string, v: AssignObjectResponseType): void;
export declare function readCreateObjectRequestType(node: XmlNode, path: string): CreateObjectRequestType;
export declare function writeCreateObjectRequestType(o: XmlOut, tag: string, v: CreateObjectRequestType): void;
export declare function readCreateObjectResponseType(node: XmlNode, path: string): CreateObjectResponseType;
export declare function writeCreateObjectResponseType(o: XmlOut, tag: string, v: CreateObjectResponseType): void;
export declare function readDeleteObjectRequestType(node: XmlNode, path: string): DeleteObjectRequestType;
export declare function writeDeleteObjectRequestType(o: XmlOut, tag: string, v: DeleteObjectRequestType): void;
export declare function readDeleteObjectResponseType(node: XmlNode, path: string): DeleteObjectResponseType;
export declare function writeDeleteObjectResponseType(o: XmlOut, tag: string, v: DeleteObjectResponseType): void;
export declare function readMoveObjectRequestType(node: XmlNode, path: string): MoveObjectRequestType;
export declare function writeMoveObjectRequestType(o: XmlOut, tag: string, v: MoveObjectRequestType): void;
export declare function readMoveObjectResponseType(node: XmlNode, path: string): MoveObjectResponseType;
export declare function writeMoveObjectResponseType(o: XmlOut, tag: string, v: MoveObjectResponseType): void;
export declare function readObjectExistsRequestType(node: XmlNode, path: string): ObjectExistsRequestType;
export declare function writeObjectExistsRequestType(o: XmlOut, tag: string, v: ObjectExistsRequestType): void;
export declare function readObjectExistsResponseType(node: XmlNode, path: string): ObjectExistsResponseType;
export declare function writeObjectExistsResponseType(o: XmlOut, tag: string, v: ObjectExistsResponseType): void;
export declare function readAddPropertyRequestType(node: XmlNode, path: string): AddPropertyRequestType;
export declare function writeAddPropertyRequestType(o: XmlOut, tag: string, v: AddPropertyRequestType): void;
export declare function readAddPropertyResponseType(node: XmlNode, path: string): AddPropertyResponseType;
export declare function writeAddPropertyResponseType(o: XmlOut, tag: string, v: AddPropertyResponseType): void;
export declare function readUpdatePropertyRequestType(node: XmlNode, path: string): UpdatePropertyRequestType;
export declare function writeUpdatePropertyRequestType(o: XmlOut, tag: string, v: UpdatePropertyRequestType): void;
export declare function readUpdatePropertyResponseType(node: XmlNode, path: string): UpdatePropertyResponseType;
export declare function writeUpdatePropertyResponseType(o: XmlOut, tag: string, v: UpdatePropertyResponseType): void;
export declare function readDeletePropertyRequestType(node: XmlNode, path: string): DeletePropertyRequestType;
export declare function writeDeletePropertyRequestType(o: XmlOut, tag: string, v: DeletePropertyRequestType): void;
export declare function readDeletePropertyResponseType(node: XmlNode, path: string): DeletePropertyResponseType;
export declare function writeDeletePropertyResponseType(o: XmlOut, tag: string, v: DeletePropertyResponseType): void;
export declare function readContextQueryRequestType(node: XmlNode, path: string): ContextQueryRequestType;
export declare function writeContextQueryRequestType(o: XmlOut, tag: string, v: ContextQueryRequestType): void;
export declare function readObjectIdQueryRequestType(node: XmlNode, path: string): ObjectIdQueryRequestType;
export declare function writeObjectIdQueryRequestType(o: XmlOut, tag: string, v: ObjectIdQueryRequestType): void;
export declare function readAllWorkspaceQueryRequestType(node: XmlNode, path: string): AllWorkspaceQueryRequestType;
export declare function writeAllWorkspaceQueryRequestType(o: XmlOut, tag: string, v: AllWorkspaceQueryRequestType): void;
export declare function readQueryPropertyDefinitionsRequestType(node: XmlNode, path: string): QueryPropertyDefinitionsRequestType;
export declare function writeQueryPropertyDefinitionsRequestType(o: XmlOut, tag: string, v: QueryPropertyDefinitionsRequestType): void;
export declare function readQueryPropertyDefinitionsResponseType(node: XmlNode, path: string): QueryPropertyDefinitionsResponseType;
export declare function writeQueryPropertyDefinitionsResponseType(o: XmlOut, tag: string, v: QueryPropertyDefinitionsResponseType): void;
export declare function readQueryDescriptionType(node: XmlNode, path: string): QueryDescriptionType;
export declare function writeQueryDescriptionType(o: XmlOut, tag: string, v: QueryDescriptionType): void;
export declare function readQueryDescriptionSetType(node: XmlNode, path: string): QueryDescriptionSetType;
export declare function writeQueryDescriptionSetType(o: XmlOut, tag: string, v: QueryDescriptionSetType): void;
export declare function readQueryDefinitionType(node: XmlNode, path: string): QueryDefinitionType;
export declare function writeQueryDefinitionType(o: XmlOut, tag: string, v: QueryDefinitionType): void;
export declare function readGetAllQueryDescriptionsRequestType(node: XmlNode, path: string): GetAllQueryDescriptionsRequestType;
export declare function writeGetAllQueryDescriptionsRequestType(o: XmlOut, tag: string, v: GetAllQueryDescriptionsRequestType): void;
export declare function readGetAllQueryDescriptionsResponseType(node: XmlNode, path: string): GetAllQueryDescriptionsResponseType;
export declare function writeGetAllQueryDescriptionsResponseType(o: XmlOut, tag: string, v: GetAllQueryDescriptionsResponseType): void;
export declare function readGetQueryDefinitionRequestType(node: XmlNode, path: string): GetQueryDefinitionRequestType;
export declare function writeGetQueryDefinitionRequestType(o: XmlOut, tag: string, v: GetQueryDefinitionRequestType): void;
export declare function readGetQueryDefinitionResponseType(node: XmlNode, path: string): GetQueryDefinitionResponseType;
export declare function writeGetQueryDefinitionResponseType(o: XmlOut, tag: string, v: GetQueryDefinitionResponseType): void;
export declare function readSaveQueryDefinitionRequestType(node: XmlNode, path: string): SaveQueryDefinitionRequestType;
export declare function writeSaveQueryDefinitionRequestType(o: XmlOut, tag: string, v: SaveQueryDefinitionRequestType): void;
export declare function readSaveQueryDefinitionResponseType(node: XmlNode, path: string): SaveQueryDefinitionResponseType;
export declare function writeSaveQueryDefinitionResponseType(o: XmlOut, tag: string, v: SaveQueryDefinitionResponseType): void;
export declare function readDeleteQueryDefinitionRequestType(node: XmlNode, path: string): DeleteQueryDefinitionRequestType;
export declare function writeDeleteQueryDefinitionRequestType(o: XmlOut, tag: string, v: DeleteQueryDefinitionRequestType): void;
export declare function readDeleteQueryDefinitionResponseType(node: XmlNode, path: string): DeleteQueryDefinitionResponseType;
export declare function writeDeleteQueryDefinitionResponseType(o: XmlOut, tag: string, v: DeleteQueryDefinitionResponseType): void;
/** Read a <checkStatusRequest> body element. */
export declare function readCheckStatusRequestElement(node: XmlNode): CheckStatusRequest;
/** Write a <checkStatusRequest> body element, declaring its namespaces. */
export declare function writeCheckStatusRequestElement(v: CheckStatusRequest): string;
/** Read a <checkStatusResponse> body element. */
export declare function readCheckStatusResponseElement(node: XmlNode): CheckStatusResponse;
/** Write a <checkStatusResponse> body element, declaring its namespaces. */
export declare function writeCheckStatusResponseElement(v: CheckStatusResponse): string;
/** Read a <lastUpdateRequest> body element. */
export declare function readLastUpdateRequestElement(node: XmlNode): LastUpdateRequest;
/** Write a <lastUpdateRequest> body element, declaring its namespaces. */
export declare function writeLastUpdateRequestElement(v: LastUpdateRequest): string;
/** Read a <lastUpdateResponse> body element. */
export declare function readLastUpdateResponseElement(node: XmlNode): LastUpdateResponse;
/** Write a <lastUpdateResponse> body element, declaring its namespaces. */
export declare function writeLastUpdateResponseElement(v: LastUpdateResponse): string;
/** Read a <createUserRequest> body element. */
export declare function readCreateUserRequestElement(node: XmlNode): CreateUserRequest;
/** Write a <createUserRequest> body element, declaring its namespaces. */
export declare function writeCreateUserRequestElement(v: CreateUserRequest): string;
/** Read a <createUserResponse> body element. */
export declare function readCreateUserResponseElement(node: XmlNode): CreateUserResponse;
/** Write a <createUserResponse> body element, declaring its namespaces. */
export declare function writeCreateUserResponseElement(v: CreateUserResponse): string;
/** Read a <updateUserRequest> body element. */
export declare function readUpdateUserRequestElement(node: XmlNode): UpdateUserRequest;
/** Write a <updateUserRequest> body element, declaring its namespaces. */
export declare function writeUpdateUserRequestElement(v: UpdateUserRequest): string;
/** Read a <updateUserResponse> body element. */
export declare function readUpdateUserResponseElement(node: XmlNode): UpdateUserResponse;
/** Write a <updateUserResponse> body element, declaring its namespaces. */
export declare function writeUpdateUserResponseElement(v: UpdateUserResponse): string;
/** Read a <deleteUserRequest> body element. */
export declare function readDeleteUserRequestElement(node: XmlNode): DeleteUserRequest;
/** Write a <deleteUserRequest> body element, declaring its namespaces. */
export declare function writeDeleteUserRequestElement(v: DeleteUserRequest): string;
/** Read a <deleteUserResponse> body element. */
export declare function readDeleteUserResponseElement(node: XmlNode): DeleteUserResponse;
/** Write a <deleteUserResponse> body element, declaring its namespaces. */
export declare function writeDeleteUserResponseElement(v: DeleteUserResponse): string;
/** Read a <queryUserRequest> body element. */
export declare function readQueryUserRequestElement(node: XmlNode): QueryUserRequest;
/** Write a <queryUserRequest> body element, declaring its namespaces. */
export declare function writeQueryUserRequestElement(v: QueryUserRequest): string;
/** Read a <queryUserResponse> body element. */
export declare function readQueryUserResponseElement(node: XmlNode): QueryUserResponse;
/** Write a <queryUserResponse> body element, declaring its namespaces. */
export declare function writeQueryUserResponseElement(v: QueryUserResponse): string;
/** Read a <doesUserExistRequest> body element. */
export declare function readDoesUserExistRequestElement(node: XmlNode): DoesUserExistRequest;
/** Write a <doesUserExistRequest> body element, declaring its namespaces. */
export declare function writeDoesUserExistRequestElement(v: DoesUserExistRequest): string;
/** Read a <doesUserExistResponse> body element. */
export declare function readDoesUserExistResponseElement(node: XmlNode): DoesUserExistResponse;
/** Write a <doesUserExistResponse> body element, declaring its namespaces. */
export declare function writeDoesUserExistResponseElement(v: DoesUserExistResponse): string;
/** Read a <whiteboardIdRequest> body element. */
export declare function readWhiteboardIdRequestElement(node: XmlNode): WhiteboardIdRequest;
/** Write a <whiteboardIdRequest> body element, declaring its namespaces. */
export declare function writeWhiteboardIdRequestElement(v: WhiteboardIdRequest): string;
/** Read a <whiteboardIdResponse> body element. */
export declare function readWhiteboardIdResponseElement(node: XmlNode): WhiteboardIdResponse;
/** Write a <whiteboardIdResponse> body element, declaring its namespaces. */
export declare function writeWhiteboardIdResponseElement(v: WhiteboardIdResponse): string;
/** Read a <assignObjectRequest> body element. */
export declare function readAssignObjectRequestElement(node: XmlNode): AssignObjectRequest;
/** Write a <assignObjectRequest> body element, declaring its namespaces. */
export declare function writeAssignObjectRequestElement(v: AssignObjectRequest): string;
/** Read a <assignObjectResponse> body element. */
export declare function readAssignObjectResponseElement(node: XmlNode): AssignObjectResponse;
/** Write a <assignObjectResponse> body element, declaring its namespaces. */
export declare function writeAssignObjectResponseElement(v: AssignObjectResponse): string;
/** Read a <createObjectRequest> body element. */
export declare function readCreateObjectRequestElement(node: XmlNode): CreateObjectRequest;
/** Write a <createObjectRequest> body element, declaring its namespaces. */
export declare function writeCreateObjectRequestElement(v: CreateObjectRequest): string;
/** Read a <createObjectResponse> body element. */
export declare function readCreateObjectResponseElement(node: XmlNode): CreateObjectResponse;
/** Write a <createObjectResponse> body element, declaring its namespaces. */
export declare function writeCreateObjectResponseElement(v: CreateObjectResponse): string;
/** Read a <deleteObjectRequest> body element. */
export declare function readDeleteObjectRequestElement(node: XmlNode): DeleteObjectRequest;
/** Write a <deleteObjectRequest> body element, declaring its namespaces. */
export declare function writeDeleteObjectRequestElement(v: DeleteObjectRequest): string;
/** Read a <deleteObjectResponse> body element. */
export declare function readDeleteObjectResponseElement(node: XmlNode): DeleteObjectResponse;
/** Write a <deleteObjectResponse> body element, declaring its namespaces. */
export declare function writeDeleteObjectResponseElement(v: DeleteObjectResponse): string;
/** Read a <moveObjectRequest> body element. */
export declare function readMoveObjectRequestElement(node: XmlNode): MoveObjectRequest;
/** Write a <moveObjectRequest> body element, declaring its namespaces. */
export declare function writeMoveObjectRequestElement(v: MoveObjectRequest): string;
/** Read a <moveObjectResponse> body element. */
export declare function readMoveObjectResponseElement(node: XmlNode): MoveObjectResponse;
/** Write a <moveObjectResponse> body element, declaring its namespaces. */
export declare function writeMoveObjectResponseElement(v: MoveObjectResponse): string;
/** Read a <objectExistsRequest> body element. */
export declare function readObjectExistsRequestElement(node: XmlNode): ObjectExistsRequest;
/** Write a <objectExistsRequest> body element, declaring its namespaces. */
export declare function writeObjectExistsRequestElement(v: ObjectExistsRequest): string;
/** Read a <objectExistsResponse> body element. */
export declare function readObjectExistsResponseElement(node: XmlNode): ObjectExistsResponse;
/** Write a <objectExistsResponse> body element, declaring its namespaces. */
export declare function writeObjectExistsResponseElement(v: ObjectExistsResponse): string;
/** Read a <addPropertyRequest> body element. */
export declare function readAddPropertyRequestElement(node: XmlNode): AddPropertyRequest;
/** Write a <addPropertyRequest> body element, declaring its namespaces. */
export declare function writeAddPropertyRequestElement(v: AddPropertyRequest): string;
/** Read a <addPropertyResponse> body element. */
export declare function readAddPropertyResponseElement(node: XmlNode): AddPropertyResponse;
/** Write a <addPropertyResponse> body element, declaring its namespaces. */
export declare function writeAddPropertyResponseElement(v: AddPropertyResponse): string;
/** Read a <updatePropertyRequest> body element. */
export declare function readUpdatePropertyRequestElement(node: XmlNode): UpdatePropertyRequest;
/** Write a <updatePropertyRequest> body element, declaring its namespaces. */
export declare function writeUpdatePropertyRequestElement(v: UpdatePropertyRequest): string;
/** Read a <updatePropertyResponse> body element. */
export declare function readUpdatePropertyResponseElement(node: XmlNode): UpdatePropertyResponse;
/** Write a <updatePropertyResponse> body element, declaring its namespaces. */
export declare function writeUpdatePropertyResponseElement(v: UpdatePropertyResponse): string;
/** Read a <deletePropertyRequest> body element. */
export declare function readDeletePropertyRequestElement(node: XmlNode): DeletePropertyRequest;
/** Write a <deletePropertyRequest> body element, declaring its namespaces. */
export declare function writeDeletePropertyRequestElement(v: DeletePropertyRequest): string;
/** Read a <deletePropertyResponse> body element. */
export declare function readDeletePropertyResponseElement(node: XmlNode): DeletePropertyResponse;
/** Write a <deletePropertyResponse> body element, declaring its namespaces. */
export declare function writeDeletePropertyResponseElement(v: DeletePropertyResponse): string;
/** Read a <contextQueryRequest> body element. */
export declare function readContextQueryRequestElement(node: XmlNode): ContextQueryRequest;
/** Write a <contextQueryRequest> body element, declaring its namespaces. */
export declare function writeContextQueryRequestElement(v: ContextQueryRequest): string;
/** Read a <queryResponse> body element. */
export declare function readQueryResponseElement(node: XmlNode): QueryResponse;
/** Write a <queryResponse> body element, declaring its namespaces. */
export declare function writeQueryResponseElement(v: QueryResponse): string;
/** Read a <objectIdQueryRequest> body element. */
export declare function readObjectIdQueryRequestElement(node: XmlNode): ObjectIdQueryRequest;
/** Write a <objectIdQueryRequest> body element, declaring its namespaces. */
export declare function writeObjectIdQueryRequestElement(v: ObjectIdQueryRequest): string;
/** Read a <allWorkspaceQueryRequest> body element. */
export declare function readAllWorkspaceQueryRequestElement(node: XmlNode): AllWorkspaceQueryRequest;
/** Write a <allWorkspaceQueryRequest> body element, declaring its namespaces. */
export declare function writeAllWorkspaceQueryRequestElement(v: AllWorkspaceQueryRequest): string;
/** Read a <queryPropertyDefinitionsRequest> body element. */
export declare function readQueryPropertyDefinitionsRequestElement(node: XmlNode): QueryPropertyDefinitionsRequest;
/** Write a <queryPropertyDefinitionsRequest> body element, declaring its namespaces. */
export declare function writeQueryPropertyDefinitionsRequestElement(v: QueryPropertyDefinitionsRequest): string;
/** Read a <queryPropertyDefinitionsResponse> body element. */
export declare function readQueryPropertyDefinitionsResponseElement(node: XmlNode): QueryPropertyDefinitionsResponse;
/** Write a <queryPropertyDefinitionsResponse> body element, declaring its namespaces. */
export declare function writeQueryPropertyDefinitionsResponseElement(v: QueryPropertyDefinitionsResponse): string;
/** Read a <getAllQueryDescriptionsRequest> body element. */
export declare function readGetAllQueryDescriptionsRequestElement(node: XmlNode): GetAllQueryDescriptionsRequest;
/** Write a <getAllQueryDescriptionsRequest> body element, declaring its namespaces. */
export declare function writeGetAllQueryDescriptionsRequestElement(v: GetAllQueryDescriptionsRequest): string;
/** Read a <getAllQueryDescriptionsResponse> body element. */
export declare function readGetAllQueryDescriptionsResponseElement(node: XmlNode): GetAllQueryDescriptionsResponse;
/** Write a <getAllQueryDescriptionsResponse> body element, declaring its namespaces. */
export declare function writeGetAllQueryDescriptionsResponseElement(v: GetAllQueryDescriptionsResponse): string;
/** Read a <getQueryDefinitionRequest> body element. */
export declare function readGetQueryDefinitionRequestElement(node: XmlNode): GetQueryDefinitionRequest;
/** Write a <getQueryDefinitionRequest> body element, declaring its namespaces. */
export declare function writeGetQueryDefinitionRequestElement(v: GetQueryDefinitionRequest): string;
/** Read a <getQueryDefinitionResponse> body element. */
export declare function readGetQueryDefinitionResponseElement(node: XmlNode): GetQueryDefinitionResponse;
/** Write a <getQueryDefinitionResponse> body element, declaring its namespaces. */
export declare function writeGetQueryDefinitionResponseElement(v: GetQueryDefinitionResponse): string;
/** Read a <saveQueryDefinitionRequest> body element. */
export declare function readSaveQueryDefinitionRequestElement(node: XmlNode): SaveQueryDefinitionRequest;
/** Write a <saveQueryDefinitionRequest> body element, declaring its namespaces. */
export declare function writeSaveQueryDefinitionRequestElement(v: SaveQueryDefinitionRequest): string;
/** Read a <saveQueryDefinitionResponse> body element. */
export declare function readSaveQueryDefinitionResponseElement(node: XmlNode): SaveQueryDefinitionResponse;
/** Write a <saveQueryDefinitionResponse> body element, declaring its namespaces. */
export declare function writeSaveQueryDefinitionResponseElement(v: SaveQueryDefinitionResponse): string;
/** Read a <deleteQueryDefinitionRequest> body element. */
export declare function readDeleteQueryDefinitionRequestElement(node: XmlNode): DeleteQueryDefinitionRequest;
/** Write a <deleteQueryDefinitionRequest> body element, declaring its namespaces. */
export declare function writeDeleteQueryDefinitionRequestElement(v: DeleteQueryDefinitionRequest): string;
/** Read a <deleteQueryDefinitionResponse> body element. */
export declare function readDeleteQueryDefinitionResponseElement(node: XmlNode): DeleteQueryDefinitionResponse;
/** Write a <deleteQueryDefinitionResponse> body element, declaring its namespaces. */
export declare function writeDeleteQueryDefinitionResponseElement(v: DeleteQueryDefinitionResponse): string;
