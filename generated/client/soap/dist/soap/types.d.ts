// Compiled from generated/soap/types.ts by npm run generate; do not edit. source 72b74819333d1dbcd0a5a0a0e3f89c390c5590ef28d8b8a2fb2685ee0a5ff8f2 output d23a0263f113b6cd82a1219eeb4c6c7c0ff57f87d661a2258ffd095ca74aa517
import type { XmlNode } from './runtime.js';
/** xsd:simpleType catalogStatusType */
export type CatalogStatusType = "OPERATION_SUCCESSFUL" | "UNHANDLED_EXCEPTION" | "INVALID_STATUS" | "AUTHORIZATION_ERROR" | "NO_DATABASE_CONNECTION" | "STORED_PROC_SQL_ERROR" | "INVALID_OBJECT_TYPE" | "NO_PARENT_SPECIFIED_FOR_NEW_OBJECT" | "PARENT_BELOW_CHILD_LEVEL" | "INVALID_PARENT" | "PARENT_DOES_NOT_EXIST" | "MISSING_DN" | "CREATE_ID_OF_ZERO" | "SQL_OBJECT_DEFINITION" | "OBJECT_DEFINITION_ERROR" | "SQL_PARENT_DEFINITION" | "PARENT_DEFINITION_ERROR" | "INVALID_INSERT" | "OBJECT_ALREADY_EXISTS" | "INVALID_OWNER" | "OBJECT_RESET_FAILED" | "INSERT_FAILED" | "INSERT_PARTIALLY_FAILED" | "INCOMPLETE_CLOB_INSERT" | "SQL_CLOB_INSERT" | "NO_PROPERTIES_FOUND" | "INCOMPLETE_INSERT" | "PROPERTY_NOT_DEFINED" | "INCOMPLETE_PROPERTY_INSERT" | "PROPERTY_INSERT_FAILURE" | "INCOMPLETE_ELEMENT_INSERT" | "NO_QUERYABLE_PROPERTIES_ADDED" | "NO_QUERYABLE_ELEMENTS_ADDED" | "ELEMENT_NOT_DEFINED" | "ELEMENT_HAS_INVALID_PROPERTY" | "STRING_ELEMENT_EXCEEDS_MAX" | "INT_ELEMENT_CONTAINS_FLOAT" | "INT_ELEMENT_CONTAINS_NONNUMERIC" | "FLOAT_ELEMENT_CONTAINS_NONNUMERIC" | "INVALID_TIME_ELEMENT" | "INVALID_DATETIME_ELEMENT" | "INVALID_POINT_ELEMENT" | "INVALID_POLYGON_ELEMENT" | "INVALID_SPATIAL_ELEMENT" | "SQL_METADATA_INSERT" | "XSLT_TRANSFORMER_ERROR" | "XML_BEAN_PARSE_ERROR" | "PROPERTY_DEPENDENCY_ERROR" | "ADD_ATTRIBUTE_ERROR" | "TRANSACTION_ROLLBACK_ERROR" | "AUTOCOMMIT_RESET_ERROR" | "CANNOT_PROCESS_PROPERTY_WITHOUT_CLOBS" | "QUERYABLE_ATTRIBUTES_PARTIAL_FAILURE" | "NO_QUERYABLE_ATTRIBUTES_ADDED" | "CONNECTION_POOL_ERROR" | "NO_DB_CONNECTION_AVAILABLE" | "AUTHORIZATION" | "CREATE_USER" | "SQL_CREATE_USER" | "NO_USER_ID" | "NO_GUID" | "GETTING_OBJECT_ID" | "USER_EXISTENCE_CHECK" | "DUPLICATE_DN" | "WHITEBOARD_CREATION_ERROR" | "WHITEBOARD_SQL_ERROR" | "WHITEBOARD_MISSING" | "OBJECT_INSERT_ERROR" | "NOT_SCHEMA_VALID" | "OBJECT_DOES_NOT_EXIST" | "QUERY_SETUP_ERROR" | "DN_DOES_NOT_EXIST" | "NO_RESULTS_FOUND" | "MYLEAD_INTERNAL_ERROR" | "SP_SQL_ERROR" | "SQL_ERROR" | "SQL_QUERYBYID_ERROR" | "AXIS2_CONTEXT_ERROR" | "RESULT_SERVLET_ERROR" | "XML_BEAN_QRY_RESULT_PARSE_ERROR" | "OBJECT_LOCK" | "PROPERTY_MAP_SETUP_ERROR" | "DIRECT_QUERY_RESULT_ERROR" | "INVALID_HIERARCHY_FILTER" | "SQL_CONTEXTQUERY_ERROR" | "INVALID_DELETE_RANGE" | "INVALID_DELETE_POSITION" | "PROPERTY_NOT_DELETABLE" | "CANNOT_DELETE_MULTIPLE_INSTANCES" | "CANNOT_DELETE_SUBPROPERTY" | "CANNOT_DELETE_WHITEBOARD_PROPERTIES" | "NO_PROPERTY_CARDINALITY" | "PROPERTY_HAS_NO_INSTANCE" | "NO_DELETE_POSITION" | "DELETE_RANGE_EXCEEDS_CARDINALITY" | "PROPERTY_DELETE_ID_QUERY_ERROR" | "PROPERTY_DELETE_TIMESTAMP" | "PROPERTY_DELETE_ERROR" | "CANNOT_DELETE_WHITEBOARD" | "OBJECT_DELETE_ERROR" | "CANNOT_DELETE_SELF" | "SQL_DELETE_PROPERTY" | "CANNOT_MOVE_WHITEBOARD" | "INVALID_PARENT_TYPE" | "OBJECT_MISSING" | "NO_CIRCULAR_OWNERSHIP" | "PARENT_RELATIONSHIP_MISSING" | "SQL_MOVE_ERROR" | "MOVE_FAILED" | "UPDATE_FAILED" | "UPDATE_PARTIALLY_FAILED" | "NO_UPDATE_POSITION" | "UPDATE_POSITION_EXCEEDS_CARDINALITY" | "SQL_UPDATE_PROPERTY" | "UPDATE_CLOB_INFO_MISSING" | "PROPERTY_UPDATE_TIMESTAMP" | "PROPERTY_CLOB_UPDATE" | "SQL_WORKSPACEQUERY_ERROR" | "WORKSPACE_IS_EMPTY" | "PROPERTY_DEF_QUERY_ERROR" | "RESULTS_DO_NOT_VALIDATE" | "NO_QUERY_DEFINITIONS" | "QUERY_DEFINITION_DOES_NOT_EXIST" | "XMLBEANS_PARSE_ERROR" | "SAVE_QUERY_DEFINITION_ERROR" | "FATAL_QUERY_ERROR" | "NON_FATAL_QUERY_ERROR" | "FATAL_STATUS_ERROR" | "NON_FATAL_STATUS_ERROR" | "SQL_DELETE_USER" | "FATAL_DELETE_ERROR" | "NON_FATAL_DELETE_ERROR" | "FATAL_CREATE_ERROR" | "NON_FATAL_CREATE_ERROR" | "FATAL_UPDATE_ERROR" | "NON_FATAL_UPDATE_ERROR" | "UNKNOWN" | "ATTRIBUTE_DOES_NOT_EXIST" | "MANDATORY_ATTRIBUTE_ABSENT" | "FILE_NAME_ALREADY_EXISTS" | "ATTRIBUTE_ALREADY_PRESENT" | "COLLECTION_DOES_NOT_EXIST" | "INVALID_PERMISSIONS" | "INVALID_OPERATION" | "SPECIFIED_COLLECTION_EXISTS" | "CHILD_COLLECTION_NOT_EXISTING" | "PARENT_COLLECTION_DOES_NOT_EXIST" | "PARENT_COLLECTION_ALREADY_EXISTS" | "INVALID_DATE" | "INVALID_TIME" | "FILE_BELONGS_TO_COLLECTION" | "OBJECT_BELONGS_TO_COLLECTION" | "FILE_DOES_NOT_BELONG_TO_COLLECTION" | "OBJECT_DOES_NOT_BELONG_TO_COLLECTION" | "NOT_EXECUTED" | "DN_IS_NULL" | "DN_IS_EMPTY" | "OBJECT_TYPE_MISSING" | "AMBIGUOUS_PARENT" | "NO_PARENT_ALLOWED" | "NO_PARENT_SPECIFIED" | "INDEX_OUT_OF_BOUNDS" | "CREATE_ERRORS" | "XSLT_ERROR" | "CREATE_COLLECTION_ERROR" | "CREATE_FILE_ERROR" | "SEQUENCE_ID_OF_ZERO" | "CREATE_ATTRIBUTE_ERROR" | "CREATE_ELEMENT_ERROR" | "DEFAULT_WHITEBOARD_ERROR" | "OUTPUT_INIT_ERROR" | "SP_RESULT_ERROR" | "QUERY_REPLICA_ERROR" | "UPDATE_USER_ERROR" | "ADD_REPLICA_ERROR" | "MOVE_ERROR" | "CANNOT_MOVE_DEFAULT" | "PARENT_NOT_COMPATIBLE" | "SELF_PARENT_NOT_ALLOWED" | "QRY_SPPROCESS_QUERY" | "QRY_INVALID_FILTER" | "QRY_HIERARCHY_ERROR" | "QRY_FILL_COLLECTION_ERROR" | "QRY_FILL_FILE_ERROR" | "QRY_RESULTS_ERROR" | "INVALID_ELEMENT" | "NO_DATA" | "PULL_PARSER_ERROR" | "RESULTS_MISSING" | "RETURNTYPE_MISSING" | "EXECUTE_ATTR_ERROR" | "RESPONSE_EXCEPTION" | "ENGINE_SYS_SETUP_EXCEPTION" | "GDS_USER_EXCEPTION" | "GDS_SYS_EXCEPTION" | "ACTIVITY_SYS_EXCEPTION" | "ENGINE_USER_SETUP_EXCEPTION" | "ACTIVITY_USER_EXCEPTION" | "REMOTE_EXCEPTION" | "MISSING_DATA" | "MISSING_PARENT" | "TRANSFORM" | "FILE_DEFINITION" | "COLLECTION_DEFINITION" | "SQL_FILE_DEFINITION" | "SQL_COLLECTION_DEFINITION" | "SQL_POST_CLOB" | "MISSING_CLOB_DATA" | "PULL_PARSER" | "MISSING_ELEMENT" | "ATTR_LIMITATION_CHECK" | "MODIFICATION_TIMESTAMP" | "ATTR_ARRAY_INDEX";
/** xsd:simpleType catalogDeliveryType */
export type CatalogDeliveryType = "NONE" | "DIRECT" | "STREAMING";
/** xsd:simpleType catalogAggregationType */
export type CatalogAggregationType = "WHITEBOARD" | "PROJECT" | "EXPERIMENT" | "COLLECTION" | "DATAPRODUCT" | "FILE";
/** xsd:simpleType hierarchyFilterType */
export type HierarchyFilterType = "TARGET" | "SUBTREE" | "CHILDREN";
/** xsd:simpleType contentFilterType */
export type ContentFilterType = "ID_ONLY" | "FULL_SCHEMA";
/** xsd:simpleType contextType */
export type ContextType = "PARENT" | "DIRECT_PARENT" | "CHILD" | "DIRECT_CHILD";
/** xsd:simpleType comparisonType */
export type ComparisonType = "EQ" | "NE" | "GT" | "GTE" | "LT" | "LTE";
/** xsd:simpleType textComparisonType */
export type TextComparisonType = "EXACT" | "STARTSWITH" | "CONTAINS";
/** xsd:simpleType spatialComparisonType */
export type SpatialComparisonType = "EQ" | "CONTAINS" | "WITHIN" | "INTERSECTS";
/** xsd:complexType catalogOperationStatusType */
export interface CatalogOperationStatusType {
    status: CatalogStatusType;
    errorStreamUrl?: string;
    operationSummary?: OperationSummaryType;
}
/** xsd:complexType operationSummaryType */
export interface OperationSummaryType {
    /** attribute */
    hasFatalErrors: boolean;
    /** attribute */
    hasNonFatalErrors: boolean;
    operationStatus: CatalogStatusType;
    operationName: string;
    methodParameter?: MethodParameterType[];
    fatalError?: ErrorDetailType[];
    nonFatalError?: ErrorDetailType[];
    operationXml?: XmlNode;
    operationSummary?: OperationSummaryType[];
}
/** xsd:complexType methodParameterType */
export interface MethodParameterType {
    paramName: string;
    dataType?: string;
    paramValue?: string;
    paramXmlValue?: XmlNode;
}
/** xsd:complexType errorDetailType */
export interface ErrorDetailType {
    cause: CatalogStatusType;
    className: string;
    methodName: string;
    description: string;
    javaException?: XmlNode;
    stackTrace?: StackTraceType;
    data?: XmlNode;
}
/** xsd:complexType stackTraceType */
export interface StackTraceType {
    traceElementCount: number;
    traceLine: string[];
}
/** xsd:complexType catalogStatType */
export interface CatalogStatType {
    /** attribute */
    name: string;
    /** text content */
    value: string;
}
/** xsd:complexType userAddrType */
export interface UserAddrType {
    addrType?: string;
    addrStreet?: string;
    addrCity?: string;
    addrState?: string;
    addrPostcode?: string;
    addrCountry?: string;
}
/** xsd:complexType userType */
export interface UserType {
    userId: string;
    userName?: string;
    organization?: string;
    position?: string;
    address?: UserAddrType;
    phone?: string;
    ttdttyPhone?: string;
    email?: string;
    fax?: string;
    url?: string;
    hours?: string;
    contactInstructions?: string;
    initialWorkspace?: InitialWorkspaceType;
}
/** xsd:complexType initialWorkspaceType */
export interface InitialWorkspaceType {
    whiteboard?: InitialObjectType;
    initialObject?: InitialObjectType[];
}
/** xsd:complexType initialObjectType */
export interface InitialObjectType {
    catalogData: CatalogDataType;
    initialObject?: InitialObjectType[];
}
/** xsd:complexType elementValueType */
export interface ElementValueType {
    name: string;
    source?: string;
    value: string;
}
/** xsd:complexType propertyType */
export interface PropertyType {
    name: string;
    source: string;
    value?: string;
    element?: ElementValueType[];
    property?: PropertyType[];
}
/** xsd:complexType catalogDataType */
export interface CatalogDataType {
    objectId: string;
    objectClass: CatalogAggregationType;
    parentId?: string;
    catalogPropertyAdd?: PropertyType[];
}
/** xsd:complexType catalogPropertyType */
export interface CatalogPropertyType {
    objectId: string;
    catalogPropertyAdd: PropertyType[];
}
/** xsd:complexType updatePropertyType */
export interface UpdatePropertyType {
    objectId: string;
    catalogPropertyUpdate: PropertyType;
    position?: number;
    lastUpdate?: number;
}
/** xsd:complexType deletePropertyRangeType */
export interface DeletePropertyRangeType {
    first: number;
    last: number;
}
/** xsd:complexType deletePropertyType */
export interface DeletePropertyType {
    objectId: string;
    propertyName: string;
    propertySource: string;
    position?: number[];
    propertyRange?: DeletePropertyRangeType;
    lastUpdate: number;
}
/** xsd:complexType queryXyPointType */
export interface QueryXyPointType {
    xPos: number;
    yPos: number;
}
/** xsd:complexType queryTextElementType */
export interface QueryTextElementType {
    value: string;
    compare: TextComparisonType;
}
/** xsd:complexType queryValueElementType */
export interface QueryValueElementType {
    value: string;
    comparison: ComparisonType;
}
/** xsd:complexType queryRangeElementType */
export interface QueryRangeElementType {
    start: string;
    end: string;
}
/** xsd:complexType queryPointElementType */
export interface QueryPointElementType {
    xyPoint: QueryXyPointType;
    spatialComparison: SpatialComparisonType;
}
/** xsd:complexType queryPolygonElementType */
export interface QueryPolygonElementType {
    xyPoint: QueryXyPointType[];
    spatialComparison: SpatialComparisonType;
}
/** xsd:complexType queryElementType */
export interface QueryElementType {
    /** attribute */
    negate?: boolean;
    /** attribute */
    parameterize?: boolean;
    /** attribute */
    description?: string;
    name: string;
    source: string;
    queryTextElement?: QueryTextElementType;
    queryValueElement?: QueryValueElementType;
    queryRangeElement?: QueryRangeElementType;
    queryPointElement?: QueryPointElementType;
    queryPolygonElement?: QueryPolygonElementType;
}
/** xsd:complexType queryElementOrSetType */
export interface QueryElementOrSetType {
    /** attribute */
    negate?: boolean;
    /** attribute */
    description?: string;
    queryElementAndSet?: QueryElementAndSetType[];
    queryElement?: QueryElementType[];
}
/** xsd:complexType queryElementAndSetType */
export interface QueryElementAndSetType {
    /** attribute */
    negate?: boolean;
    /** attribute */
    description?: string;
    queryElementOrSet?: QueryElementOrSetType[];
    queryElement?: QueryElementType[];
}
/** xsd:complexType queryPropertyType */
export interface QueryPropertyType {
    /** attribute */
    negate?: boolean;
    /** attribute */
    description?: string;
    name: string;
    source: string;
    queryElementOrSet?: QueryElementOrSetType[];
    queryElement?: QueryElementType[];
    queryPropertyOrSet?: QueryPropertyOrSetType[];
    queryProperty?: QueryPropertyType[];
}
/** xsd:complexType queryPropertyOrSetType */
export interface QueryPropertyOrSetType {
    /** attribute */
    negate?: boolean;
    /** attribute */
    description?: string;
    queryPropertyAndSet?: QueryPropertyAndSetType[];
    queryProperty?: QueryPropertyType[];
}
/** xsd:complexType queryPropertyAndSetType */
export interface QueryPropertyAndSetType {
    /** attribute */
    negate?: boolean;
    /** attribute */
    description?: string;
    queryPropertyOrSet?: QueryPropertyOrSetType[];
    queryProperty?: QueryPropertyType[];
}
/** xsd:complexType queryObjectType */
export interface QueryObjectType {
    /** attribute */
    negate?: boolean;
    /** attribute */
    description?: string;
    aggrType: CatalogAggregationType;
    objectId?: string;
    createDateStart?: string;
    createDateEnd?: string;
    queryPropertyOrSet?: QueryPropertyOrSetType[];
    queryProperty?: QueryPropertyType[];
}
/** xsd:complexType queryComponentType */
export interface QueryComponentType extends QueryObjectType {
    relation: ContextType;
    queryOrSet?: QueryOrSetType[];
    queryComponent?: QueryComponentType[];
}
/** xsd:complexType queryOrSetType */
export interface QueryOrSetType {
    /** attribute */
    negate?: boolean;
    queryAndSet?: QueryAndSetType[];
    queryComponent?: QueryComponentType[];
}
/** xsd:complexType queryAndSetType */
export interface QueryAndSetType {
    /** attribute */
    negate?: boolean;
    queryOrSet?: QueryOrSetType[];
    queryComponent?: QueryComponentType[];
}
/** xsd:complexType contextQueryType */
export interface ContextQueryType {
    /** attribute */
    negate?: boolean;
    queryOrSet?: QueryOrSetType[];
    queryComponent?: QueryComponentType[];
}
/** xsd:complexType parentChildFilterType */
export interface ParentChildFilterType {
    distLimit: number;
    excluded?: CatalogAggregationType[];
}
/** xsd:complexType hierarchyFilterSetType */
export interface HierarchyFilterSetType {
    parentFilter?: ParentChildFilterType;
    childFilter?: ParentChildFilterType;
}
/** xsd:complexType propertyFilterType */
export interface PropertyFilterType {
    propertyName: string;
    propertySource: string;
}
/** xsd:complexType elementFilterType */
export interface ElementFilterType {
    propertyName: string;
    propertySource: string;
    elementName: string;
    elementSource: string;
    elementFilter?: string;
}
/** xsd:complexType propertyExclusionType */
export interface PropertyExclusionType {
    propertyName: string;
    propertySource?: string;
}
/** xsd:complexType queryResultFormatType */
export interface QueryResultFormatType {
    offset: number;
    count: number;
    hierarchyFilter?: HierarchyFilterType;
    hierarchyFilterSet?: HierarchyFilterSetType;
    contentFilter?: ContentFilterType;
    propertyFilter?: PropertyFilterType[];
    elementFilter?: ElementFilterType[];
    propertyExclusion?: PropertyExclusionType[];
    showHasChildren?: boolean;
    showCreateDate?: boolean;
    showModifyDate?: boolean;
    resultDeliveryMethod: CatalogDeliveryType;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType resultNodeType */
export interface ResultNodeType {
    /** attribute */
    objectClass: CatalogAggregationType;
    /** attribute */
    objectId: string;
    /** attribute */
    parentId?: string;
    /** attribute */
    hasChildren?: boolean;
    /** attribute */
    creationDate?: number;
    /** attribute */
    modificationDate?: number;
}
/** xsd:complexType guidResponseType */
export interface GuidResponseType extends ResultNodeType {
    guidResponse?: GuidResponseType[];
}
/** xsd:complexType objectResponseType */
export interface ObjectResponseType extends ResultNodeType {
    property?: PropertyType[];
    objectResponse?: ObjectResponseType[];
}
/** xsd:complexType propertyResponseType */
export interface PropertyResponseType extends ResultNodeType {
    property?: PropertyType[];
    propertyResponse?: PropertyResponseType[];
}
/** xsd:complexType metadataElementType */
export interface MetadataElementType {
    /** attribute */
    name: string;
    /** text content */
    value: string;
}
/** xsd:complexType elementResponseType */
export interface ElementResponseType extends ResultNodeType {
    metadataElement?: MetadataElementType[];
    elementResponse?: ElementResponseType[];
}
/** xsd:complexType objectSetResponseType */
export interface ObjectSetResponseType {
    any?: XmlNode[];
}
/** xsd:complexType queryResponseSetType */
export interface QueryResponseSetType {
    objectSetResponse?: ObjectSetResponseType;
    guidResponse?: GuidResponseType[];
    objectResponse?: ObjectResponseType[];
    propertyResponse?: PropertyResponseType[];
    elementResponse?: ElementResponseType[];
}
/** xsd:complexType queryResponseType */
export interface QueryResponseType {
    /** attribute */
    timestamp: number;
    catalogOperationStatus: CatalogOperationStatusType;
    resultStreamUrl?: string | null;
    queryResponseSet?: QueryResponseSetType | null;
}
/** xsd:complexType metadataElementDefType */
export interface MetadataElementDefType {
    elementId: number;
    elementName: string;
    elementSource: string;
    elementDesc: string;
    elementShortDesc: string;
    elementType: number;
}
/** xsd:complexType metadataPropertyDefType */
export interface MetadataPropertyDefType {
    propertyId: number;
    propertyName: string;
    propertySource: string;
    propertyDesc: string;
    propertyShortDesc: string;
    metadataElementDef?: MetadataElementDefType[];
    metadataPropertyDef?: MetadataPropertyDefType[];
}
/** xsd:complexType metadataCategoryDefType */
export interface MetadataCategoryDefType {
    categoryId: number;
    categoryName: string;
    metadataPropertyDef?: MetadataPropertyDefType[];
}
/** xsd:complexType metadataDefinitionType */
export interface MetadataDefinitionType {
    metadataCategoryDef: MetadataCategoryDefType[];
}
/** xsd:complexType checkStatusRequestType */
export interface CheckStatusRequestType {
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType checkStatusResponseType */
export interface CheckStatusResponseType {
    catalogStat?: CatalogStatType[];
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType lastUpdateRequestType */
export interface LastUpdateRequestType {
    objectId: string;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType lastUpdateResponseType */
export interface LastUpdateResponseType {
    lastUpdated: number;
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType createUserRequestType */
export interface CreateUserRequestType {
    catalogUser: UserType[];
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType createUserResponseType */
export interface CreateUserResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType updateUserRequestType */
export interface UpdateUserRequestType {
    userId: string;
    catalogUser: UserType[];
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType updateUserResponseType */
export interface UpdateUserResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType deleteUserRequestType */
export interface DeleteUserRequestType {
    deletedUserId: string[];
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType deleteUserResponseType */
export interface DeleteUserResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType queryUserRequestType */
export interface QueryUserRequestType {
    userId: string;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType queryUserResponseType */
export interface QueryUserResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
    catalogUser?: UserType[];
}
/** xsd:complexType doesUserExistRequestType */
export interface DoesUserExistRequestType {
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType doesUserExistResponseType */
export interface DoesUserExistResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
    userExists: boolean;
}
/** xsd:complexType whiteboardIdRequestType */
export interface WhiteboardIdRequestType {
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType whiteboardIdResponseType */
export interface WhiteboardIdResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
    objectId: string | null;
}
/** xsd:complexType assignObjectRequestType */
export interface AssignObjectRequestType {
    objectId: string;
    parentId: string;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType assignObjectResponseType */
export interface AssignObjectResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType createObjectRequestType */
export interface CreateObjectRequestType {
    catalogData: CatalogDataType[];
    assignIfExists?: boolean;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType createObjectResponseType */
export interface CreateObjectResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType deleteObjectRequestType */
export interface DeleteObjectRequestType {
    objectId: string[];
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType deleteObjectResponseType */
export interface DeleteObjectResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType moveObjectRequestType */
export interface MoveObjectRequestType {
    objectId: string;
    parentId: string;
    newUserId?: string;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType moveObjectResponseType */
export interface MoveObjectResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType objectExistsRequestType */
export interface ObjectExistsRequestType {
    objectId: string;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType objectExistsResponseType */
export interface ObjectExistsResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
    objectExists: boolean;
}
/** xsd:complexType addPropertyRequestType */
export interface AddPropertyRequestType {
    catalogProperty: CatalogPropertyType[];
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType addPropertyResponseType */
export interface AddPropertyResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType updatePropertyRequestType */
export interface UpdatePropertyRequestType {
    updateProperty: UpdatePropertyType;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType updatePropertyResponseType */
export interface UpdatePropertyResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType deletePropertyRequestType */
export interface DeletePropertyRequestType {
    deleteProperty: DeletePropertyType;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType deletePropertyResponseType */
export interface DeletePropertyResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType contextQueryRequestType */
export interface ContextQueryRequestType {
    queryTarget: QueryObjectType;
    contextQuery?: ContextQueryType;
    queryResultFormat: QueryResultFormatType;
}
/** xsd:complexType objectIdQueryRequestType */
export interface ObjectIdQueryRequestType {
    objectId: string[];
    queryResultFormat: QueryResultFormatType;
}
/** xsd:complexType allWorkspaceQueryRequestType */
export interface AllWorkspaceQueryRequestType {
    queryResultFormat?: QueryResultFormatType;
}
/** xsd:complexType queryPropertyDefinitionsRequestType */
export interface QueryPropertyDefinitionsRequestType {
    resultDeliveryMethod: CatalogDeliveryType;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType queryPropertyDefinitionsResponseType */
export interface QueryPropertyDefinitionsResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
    metadataDefinition?: MetadataDefinitionType | null;
    resultStreamUrl?: string | null;
}
/** xsd:complexType queryDescriptionType */
export interface QueryDescriptionType {
    queryId: string;
    name: string;
    description: string;
}
/** xsd:complexType queryDescriptionSetType */
export interface QueryDescriptionSetType {
    templateQuery?: QueryDescriptionType[];
    privateQuery?: QueryDescriptionType[];
}
/** xsd:complexType queryDefinitionType */
export interface QueryDefinitionType {
    queryTarget: QueryObjectType;
    contextQuery?: ContextQueryType;
}
/** xsd:complexType getAllQueryDescriptionsRequestType */
export interface GetAllQueryDescriptionsRequestType {
    resultDeliveryMethod: CatalogDeliveryType;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType getAllQueryDescriptionsResponseType */
export interface GetAllQueryDescriptionsResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
    queryDescriptionSet?: QueryDescriptionSetType;
    resultStreamUrl?: string | null;
}
/** xsd:complexType getQueryDefinitionRequestType */
export interface GetQueryDefinitionRequestType {
    queryId: string;
    resultDeliveryMethod: CatalogDeliveryType;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType getQueryDefinitionResponseType */
export interface GetQueryDefinitionResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
    queryDefinition?: QueryDefinitionType;
    resultStreamUrl?: string | null;
}
/** xsd:complexType saveQueryDefinitionRequestType */
export interface SaveQueryDefinitionRequestType {
    /** attribute */
    public?: boolean;
    title: string;
    description: string;
    queryId?: string;
    queryDefinition: QueryDefinitionType;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType saveQueryDefinitionResponseType */
export interface SaveQueryDefinitionResponseType {
    queryId: string | null;
    catalogOperationStatus: CatalogOperationStatusType;
}
/** xsd:complexType deleteQueryDefinitionRequestType */
export interface DeleteQueryDefinitionRequestType {
    queryId: string;
    errorDeliveryMethod: CatalogDeliveryType;
}
/** xsd:complexType deleteQueryDefinitionResponseType */
export interface DeleteQueryDefinitionResponseType {
    catalogOperationStatus: CatalogOperationStatusType;
}
export type CheckStatusRequest = CheckStatusRequestType;
export type CheckStatusResponse = CheckStatusResponseType;
export type LastUpdateRequest = LastUpdateRequestType;
export type LastUpdateResponse = LastUpdateResponseType;
export type CreateUserRequest = CreateUserRequestType;
export type CreateUserResponse = CreateUserResponseType;
export type UpdateUserRequest = UpdateUserRequestType;
export type UpdateUserResponse = UpdateUserResponseType;
export type DeleteUserRequest = DeleteUserRequestType;
export type DeleteUserResponse = DeleteUserResponseType;
export type QueryUserRequest = QueryUserRequestType;
export type QueryUserResponse = QueryUserResponseType;
export type DoesUserExistRequest = DoesUserExistRequestType;
export type DoesUserExistResponse = DoesUserExistResponseType;
export type WhiteboardIdRequest = WhiteboardIdRequestType;
export type WhiteboardIdResponse = WhiteboardIdResponseType;
export type AssignObjectRequest = AssignObjectRequestType;
export type AssignObjectResponse = AssignObjectResponseType;
export type CreateObjectRequest = CreateObjectRequestType;
export type CreateObjectResponse = CreateObjectResponseType;
export type DeleteObjectRequest = DeleteObjectRequestType;
export type DeleteObjectResponse = DeleteObjectResponseType;
export type MoveObjectRequest = MoveObjectRequestType;
export type MoveObjectResponse = MoveObjectResponseType;
export type ObjectExistsRequest = ObjectExistsRequestType;
export type ObjectExistsResponse = ObjectExistsResponseType;
export type AddPropertyRequest = AddPropertyRequestType;
export type AddPropertyResponse = AddPropertyResponseType;
export type UpdatePropertyRequest = UpdatePropertyRequestType;
export type UpdatePropertyResponse = UpdatePropertyResponseType;
export type DeletePropertyRequest = DeletePropertyRequestType;
export type DeletePropertyResponse = DeletePropertyResponseType;
export type ContextQueryRequest = ContextQueryRequestType;
export type QueryResponse = QueryResponseType;
export type ObjectIdQueryRequest = ObjectIdQueryRequestType;
export type AllWorkspaceQueryRequest = AllWorkspaceQueryRequestType;
export type QueryPropertyDefinitionsRequest = QueryPropertyDefinitionsRequestType;
export type QueryPropertyDefinitionsResponse = QueryPropertyDefinitionsResponseType;
export type GetAllQueryDescriptionsRequest = GetAllQueryDescriptionsRequestType;
export type GetAllQueryDescriptionsResponse = GetAllQueryDescriptionsResponseType;
export type GetQueryDefinitionRequest = GetQueryDefinitionRequestType;
export type GetQueryDefinitionResponse = GetQueryDefinitionResponseType;
export type SaveQueryDefinitionRequest = SaveQueryDefinitionRequestType;
export type SaveQueryDefinitionResponse = SaveQueryDefinitionResponseType;
export type DeleteQueryDefinitionRequest = DeleteQueryDefinitionRequestType;
export type DeleteQueryDefinitionResponse = DeleteQueryDefinitionResponseType;
